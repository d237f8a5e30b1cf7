;; probe: negative goals: both objects start in the briefcase and must be out of it, the briefcase elsewhere.
(define (problem briefcase-probe-nothing-inside)
  (:domain briefcase)
  (:objects l0 l1 - location o0 o1 - portable)
  (:init
    (is-at l0)
    (at o0 l0) (in o0)
    (at o1 l0) (in o1))
  (:goal (and (not (in o0)) (not (in o1)) (is-at l1))))
