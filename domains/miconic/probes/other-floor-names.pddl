;; probe: floors with names that follow no numbering (the generator writes f0 f1 ... from the bottom),
;; listed out of height order; only (above ...) tells which floor is higher.
(define (problem miconic-probe-other-floor-names)
  (:domain miconic)
  (:objects roof lobby basement mezzanine - floor alice bob - passenger)
  (:init
    (above basement lobby) (above basement mezzanine) (above basement roof)
    (above lobby mezzanine) (above lobby roof)
    (above mezzanine roof)
    (origin alice roof) (destin alice basement)
    (origin bob lobby) (destin bob mezzanine)
    (lift-at mezzanine))
  (:goal (and (served alice) (served bob))))
