;; probe: the goal also says where the carrier must end up: back at the home base.
(define (problem delivery-probe-carrier-goal)
  (:domain delivery)
  (:objects loc-0 loc-1 loc-2 loc-3 - loc paper-0 paper-1 paper-2 - paper)
  (:init
    (at loc-1)
    (isHomeBase loc-1)
    (safe loc-1) (safe loc-0) (safe loc-3)
    (wantsPaper loc-0) (wantsPaper loc-3)
    (unpacked paper-0) (unpacked paper-1) (unpacked paper-2))
  (:goal (and (satisfied loc-0) (satisfied loc-3) (at loc-1))))
