;; probe: there is no trail at all, and the cells are named without the r<i>_c<j> grid pattern: a lodge
;; by a lake, with the ford on the far side reached over a meadow and a hill.
(define (problem hiking-probe-no-trail)
  (:domain hiking)
  (:objects lodge meadow summit lake ford - loc)
  (:init
    (at lodge)
    (adjacent lodge meadow) (adjacent meadow lodge)
    (adjacent meadow summit) (adjacent summit meadow)
    (adjacent summit ford) (adjacent ford summit)
    (adjacent lodge lake) (adjacent lake lodge)
    (adjacent lake ford) (adjacent ford lake)
    (isHill summit)
    (isWater lake))
  (:goal (at ford)))
