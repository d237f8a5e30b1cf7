;; probe: the goal also says where the ferry must end up (the generator's goals only place cars).
(define (problem ferry-probe-ferry-goal)
  (:domain ferry)
  (:objects l0 l1 l2 c0 c1)
  (:init
    (location l0) (location l1) (location l2)
    (car c0) (car c1)
    (not-eq l0 l1) (not-eq l0 l2) (not-eq l1 l0) (not-eq l1 l2) (not-eq l2 l0) (not-eq l2 l1)
    (empty-ferry)
    (at-ferry l0)
    (at c0 l0)
    (at c1 l1))
  (:goal (and (at c0 l1) (at c1 l1) (at-ferry l2))))
