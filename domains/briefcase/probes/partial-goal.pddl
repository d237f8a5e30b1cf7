;; probe: only one of three objects has a goal; the others (one of them in the briefcase) may end anywhere.
(define (problem briefcase-probe-partial-goal)
  (:domain briefcase)
  (:objects l0 l1 l2 - location o0 o1 o2 - portable)
  (:init
    (is-at l0)
    (at o0 l0) (in o0)
    (at o1 l1)
    (at o2 l2))
  (:goal (and (at o1 l2))))
