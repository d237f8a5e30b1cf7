;; probe: the goal also says on which floor the lift must end (the generator's goals only serve
;; passengers).
(define (problem miconic-probe-lift-goal)
  (:domain miconic)
  (:objects f0 f1 f2 f3 - floor p0 p1 - passenger)
  (:init
    (above f0 f1) (above f0 f2) (above f0 f3) (above f1 f2) (above f1 f3) (above f2 f3)
    (origin p0 f1) (destin p0 f3)
    (origin p1 f2) (destin p1 f0)
    (lift-at f0))
  (:goal (and (served p0) (served p1) (lift-at f2))))
