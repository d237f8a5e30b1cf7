(define (problem courier-1)
  (:domain courier)
  (:objects t1 - truck
            a b - place
            p1 - box)
  (:init (at t1 a) (road a b))
  (:goal (at t1 b)))
