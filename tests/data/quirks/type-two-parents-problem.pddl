; Two crates onto a pallet, one on the other.
(define (problem stacking-2)
  (:domain stacking)
  (:objects c1 c2 - crate p - pallet)
  (:init (clear p) (clear c1) (clear c2))
  (:goal (and (on c1 p) (on c2 c1))))
