;; probe: an object must end up inside the briefcase, (in o1), and the briefcase at a given location.
(define (problem briefcase-probe-goal-in-briefcase)
  (:domain briefcase)
  (:objects l0 l1 l2 - location o0 o1 - portable)
  (:init
    (is-at l2)
    (at o0 l0)
    (at o1 l1))
  (:goal (and (at o0 l2) (in o1) (is-at l0))))
