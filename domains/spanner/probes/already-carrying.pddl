;; probe: the man already carries a spanner at the start, a second one he carries is already used up,
;; and one nut is tightened from the start (the generator starts with nothing carried and all nuts loose).
(define (problem spanner-probe-already-carrying)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 spanner3 - spanner
    nut1 nut2 nut3 - nut
    shed location1 gate - location)
  (:init
    (at bob shed)
    (carrying bob spanner1) (useable spanner1)
    (carrying bob spanner2)
    (at spanner3 location1) (useable spanner3)
    (at nut1 gate) (loose nut1)
    (at nut2 gate) (loose nut2)
    (at nut3 gate) (tightened nut3)
    (link shed location1) (link location1 gate))
  (:goal (and (tightened nut1) (tightened nut2) (tightened nut3))))
