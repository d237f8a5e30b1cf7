;; probe: a package starts inside an airplane that is not at the package's destination city.
(define (problem logistics-probe-package-in-airplane)
  (:domain logistics)
  (:objects
    city0 city1 - city
    airport0 airport1 - airport
    loc1-1 - location
    truck0 truck1 - truck
    plane0 - airplane
    pkg0 - package)
  (:init
    (in-city airport0 city0)
    (in-city airport1 city1) (in-city loc1-1 city1)
    (at truck0 airport0)
    (at truck1 airport1)
    (at plane0 airport0)
    (in pkg0 plane0))
  (:goal (and (at pkg0 loc1-1))))
