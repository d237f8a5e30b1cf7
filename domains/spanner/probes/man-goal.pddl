;; probe: the goal also says where the man must be at the end: at the gate, although the only nut waits
;; earlier on the path.
(define (problem spanner-probe-man-goal)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 - spanner
    nut1 - nut
    shed location1 location2 gate - location)
  (:init
    (at bob shed)
    (at spanner1 shed) (useable spanner1)
    (at nut1 location1) (loose nut1)
    (link shed location1) (link location1 location2) (link location2 gate))
  (:goal (and (tightened nut1) (at bob gate))))
