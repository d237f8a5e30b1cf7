(define (problem courier-1)
  (:domain courier)
  (:objects t1 - truck a b - place p1 - parcel)
  (:init (at t1 a) (parcel-at p1 a) (road a b))
  (:goal
    (and (parcel-at p1 b)
         (delivered p1))))
