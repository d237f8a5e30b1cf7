; PDDL 1.0's '(:length ...)' in a problem (the IPC-1998 problems): the error is at its line, 10.
(define (problem courier-1)
  (:domain courier)
  (:objects t1 - truck
            a b c - place
            p1 p2 - parcel)
  (:init
    (at t1 a)
    (road a b) (road b a) (road b c) (road c b))
  (:length (:serial 2) (:parallel 2))
  (:goal (and (at t1 c))))
