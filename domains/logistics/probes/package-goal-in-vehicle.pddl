;; probe: a package has to end up inside a truck of the other city.
(define (problem logistics-probe-package-goal-in-vehicle)
  (:domain logistics)
  (:objects
    city0 city1 - city
    airport0 airport1 - airport
    truck0 truck1 - truck
    plane0 - airplane
    pkg0 - package)
  (:init
    (in-city airport0 city0)
    (in-city airport1 city1)
    (at truck0 airport0)
    (at truck1 airport1)
    (at plane0 airport1)
    (at pkg0 airport0))
  (:goal (and (in pkg0 truck1))))
