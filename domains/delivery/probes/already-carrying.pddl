;; probe: the carrier already carries the only paper that is left (no paper is unpacked at the home base),
;; and one location is satisfied before the plan starts.
(define (problem delivery-probe-already-carrying)
  (:domain delivery)
  (:objects loc-0 loc-1 loc-2 - loc paper-0 paper-1 - paper)
  (:init
    (at loc-0)
    (isHomeBase loc-0)
    (safe loc-0) (safe loc-2)
    (satisfied loc-1)
    (wantsPaper loc-2)
    (carrying paper-1))
  (:goal (and (satisfied loc-1) (satisfied loc-2))))
