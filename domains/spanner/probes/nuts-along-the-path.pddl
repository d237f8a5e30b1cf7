;; probe: the loose nuts are not all at the gate: one waits halfway along the path (the generator puts
;; every nut at the gate).
(define (problem spanner-probe-nuts-along-the-path)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 - spanner
    nut1 nut2 - nut
    shed location1 location2 gate - location)
  (:init
    (at bob shed)
    (at spanner1 location1) (useable spanner1)
    (at spanner2 location1) (useable spanner2)
    (at nut1 location2) (loose nut1)
    (at nut2 gate) (loose nut2)
    (link shed location1) (link location1 location2) (link location2 gate))
  (:goal (and (tightened nut1) (tightened nut2))))
