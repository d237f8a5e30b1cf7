;; probe: only one of three cars has a goal (the generator gives every car one); the others may stay.
(define (problem ferry-probe-partial-goal)
  (:domain ferry)
  (:objects l0 l1 l2 c0 c1 c2)
  (:init
    (location l0) (location l1) (location l2)
    (car c0) (car c1) (car c2)
    (not-eq l0 l1) (not-eq l0 l2) (not-eq l1 l0) (not-eq l1 l2) (not-eq l2 l0) (not-eq l2 l1)
    (empty-ferry)
    (at-ferry l1)
    (at c0 l1)
    (at c1 l2)
    (at c2 l0))
  (:goal (and (at c1 l0))))
