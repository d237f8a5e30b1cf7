;; probe: one passenger is already in the lift at the start and another is already served; only some
;; passengers are in the goal (the generator starts with nobody boarded and asks to serve everyone).
(define (problem miconic-probe-already-boarded)
  (:domain miconic)
  (:objects f0 f1 f2 - floor p0 p1 p2 p3 - passenger)
  (:init
    (above f0 f1) (above f0 f2) (above f1 f2)
    (origin p0 f2) (destin p0 f0) (boarded p0)
    (origin p1 f0) (destin p1 f1) (served p1)
    (origin p2 f1) (destin p2 f2)
    (origin p3 f2) (destin p3 f1)
    (lift-at f1))
  (:goal (and (served p0) (served p1) (served p2))))
