;; probe: a package starts inside a truck (the generator puts every package at a place).
(define (problem logistics-probe-package-in-truck)
  (:domain logistics)
  (:objects
    city0 city1 - city
    airport0 airport1 - airport
    loc0-1 loc1-1 - location
    truck0 truck1 - truck
    plane0 - airplane
    pkg0 pkg1 - package)
  (:init
    (in-city airport0 city0) (in-city loc0-1 city0)
    (in-city airport1 city1) (in-city loc1-1 city1)
    (at truck0 loc0-1)
    (at truck1 airport1)
    (at plane0 airport1)
    (in pkg0 truck0)
    (at pkg1 loc0-1))
  (:goal (and (at pkg0 loc1-1) (at pkg1 airport0))))
