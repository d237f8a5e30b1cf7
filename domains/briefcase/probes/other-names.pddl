;; probe: names without the l<i> / o<i> pattern, objects declared in mixed order, an object inside that must stay.
(define (problem briefcase-probe-other-names)
  (:domain briefcase)
  (:objects
    passport - portable
    home office - location
    laptop - portable
    airport - location
    keys - portable)
  (:init
    (is-at home)
    (at passport home) (in passport)
    (at laptop office)
    (at keys airport))
  (:goal (and (at passport home) (at laptop airport) (at keys home))))
