; Two crates stacked on a dock go to the bay in the same order: the upper one waits on the second dock.
(define (problem yard-2)
  (:domain yard)
  (:objects k - crane d1 d2 - dock b - bay x1 x2 - crate)
  (:init (free k) (on x1 d1) (on x2 x1) (clear x2) (clear d2) (clear b)
         (reach k d1) (reach k d2) (reach k b) (reach k x1) (reach k x2))
  (:goal (and (on x1 b) (on x2 x1))))
