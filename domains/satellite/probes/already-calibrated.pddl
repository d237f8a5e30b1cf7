;; probe: the instrument is on and calibrated at the start, so no calibration is needed, and one image
;; exists already.
(define (problem satellite-probe-already-calibrated)
  (:domain satellite)
  (:objects
    satellite0 - satellite
    instrument0 - instrument
    thermograph0 - mode
    star0 planet1 planet2 - direction)
  (:init
    (on_board instrument0 satellite0)
    (supports instrument0 thermograph0)
    (calibration_target instrument0 star0)
    (power_on instrument0)
    (calibrated instrument0)
    (have_image planet1 thermograph0)
    (pointing satellite0 planet1))
  (:goal (and (have_image planet1 thermograph0) (have_image planet2 thermograph0))))
