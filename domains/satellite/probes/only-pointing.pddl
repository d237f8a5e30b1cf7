;; probe: the goal has no images at all, only where two satellites must point.
(define (problem satellite-probe-only-pointing)
  (:domain satellite)
  (:objects
    satellite0 satellite1 - satellite
    instrument0 instrument1 - instrument
    image0 - mode
    star0 star1 planet2 - direction)
  (:init
    (on_board instrument0 satellite0)
    (on_board instrument1 satellite1)
    (supports instrument0 image0)
    (supports instrument1 image0)
    (calibration_target instrument0 star0)
    (calibration_target instrument1 star1)
    (power_avail satellite0)
    (power_avail satellite1)
    (pointing satellite0 star0)
    (pointing satellite1 star1))
  (:goal (and (pointing satellite0 planet2) (pointing satellite1 star0))))
