;; probe: roads are one-way (the generator always adds both directions), so the truck has to go round a
;; ring; the locations have free names.
(define (problem transport-probe-one-way-roads)
  (:domain transport)
  (:objects
    mill farm market - location
    cart - vehicle
    grain - package
    empty one-free - capacity-number)
  (:init
    (road mill farm) (road farm market) (road market mill)
    (capacity-predecessor empty one-free)
    (at cart market)
    (capacity cart one-free)
    (at grain farm))
  (:goal (and (at grain mill))))
