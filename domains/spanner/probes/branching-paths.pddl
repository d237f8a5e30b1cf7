;; probe: the links do not form a single path: from the shed one branch leads past the spanners, the
;; other is a short cut to the gate without any (the generator always builds one straight path).
(define (problem spanner-probe-branching-paths)
  (:domain spanner)
  (:objects
    bob - man
    spanner1 spanner2 - spanner
    nut1 nut2 - nut
    shed shortcut workshop yard gate - location)
  (:init
    (at bob shed)
    (at spanner1 workshop) (useable spanner1)
    (at spanner2 yard) (useable spanner2)
    (at nut1 gate) (loose nut1)
    (at nut2 gate) (loose nut2)
    (link shed shortcut) (link shortcut gate)
    (link shed workshop) (link workshop yard) (link yard gate))
  (:goal (and (tightened nut1) (tightened nut2))))
