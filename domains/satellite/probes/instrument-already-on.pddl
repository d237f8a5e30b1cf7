;; probe: an instrument is switched on at the start, so its satellite has no power available; the image
;; needs the other instrument, so the first one must be switched off (the generator starts with power
;; available everywhere and every instrument off).
(define (problem satellite-probe-instrument-already-on)
  (:domain satellite)
  (:objects
    satellite0 - satellite
    instrument0 instrument1 - instrument
    image0 infrared1 - mode
    groundstation0 star1 phenomenon2 - direction)
  (:init
    (on_board instrument0 satellite0)
    (on_board instrument1 satellite0)
    (supports instrument0 image0)
    (supports instrument1 infrared1)
    (calibration_target instrument0 groundstation0)
    (calibration_target instrument1 star1)
    (power_on instrument0)
    (pointing satellite0 groundstation0))
  (:goal (and (have_image phenomenon2 infrared1))))
