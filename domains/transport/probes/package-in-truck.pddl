;; probe: a package is already loaded in a truck at the start (its capacity is one lower), and the
;; second package must go where the first one is going.
(define (problem transport-probe-package-in-truck)
  (:domain transport)
  (:objects
    city-loc-0 city-loc-1 city-loc-2 - location
    truck-0 - vehicle
    package-0 package-1 - package
    capacity-0 capacity-1 capacity-2 - capacity-number)
  (:init
    (road city-loc-0 city-loc-1) (road city-loc-1 city-loc-0)
    (road city-loc-1 city-loc-2) (road city-loc-2 city-loc-1)
    (capacity-predecessor capacity-0 capacity-1)
    (capacity-predecessor capacity-1 capacity-2)
    (at truck-0 city-loc-0)
    (capacity truck-0 capacity-1)
    (in package-0 truck-0)
    (at package-1 city-loc-1))
  (:goal (and (at package-0 city-loc-2) (at package-1 city-loc-2))))
