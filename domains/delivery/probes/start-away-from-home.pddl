;; probe: the carrier starts at a safe location that is not the home base (the generator always starts it
;; at the home base).
(define (problem delivery-probe-start-away-from-home)
  (:domain delivery)
  (:objects loc-0 loc-1 loc-2 loc-3 - loc paper-0 paper-1 - paper)
  (:init
    (at loc-2)
    (isHomeBase loc-0)
    (safe loc-0) (safe loc-1) (safe loc-2)
    (wantsPaper loc-1) (wantsPaper loc-2)
    (unpacked paper-0) (unpacked paper-1))
  (:goal (and (satisfied loc-1) (satisfied loc-2))))
