; A well-formed problem of domain.pddl.
(define (problem courier-1)
  (:domain courier)
  (:objects t1 - truck
            a b c - place
            p1 p2 - parcel)
  (:init
    (at t1 a)
    (parcel-at p1 a)
    (parcel-at p2 b)
    (road a b) (road b a) (road b c) (road c b))
  (:goal (and (parcel-at p1 c) (parcel-at p2 c))))
