;; probe: locations and papers with names that follow no pattern (the generator writes loc-<i> and
;; paper-<i>), the home base listed last.
(define (problem delivery-probe-other-names)
  (:domain delivery)
  (:objects mill-lane church-street depot - loc times gazette - paper)
  (:init
    (at depot)
    (isHomeBase depot)
    (safe depot) (safe church-street)
    (wantsPaper church-street)
    (unpacked times) (unpacked gazette))
  (:goal (and (satisfied church-street))))
