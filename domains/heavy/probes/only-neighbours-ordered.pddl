;; probe: the heavier relation is not spelled out for every pair, only for neighbours in weight (the
;; generator lists all pairs), so counting lighter items does not give the order; items are listed
;; lightest first.
(define (problem heavy-probe-only-neighbours-ordered)
  (:domain heavy)
  (:objects feather book brick anvil)
  (:init
    (box-empty)
    (unpacked feather) (unpacked book) (unpacked brick) (unpacked anvil)
    (heavier book feather)
    (heavier brick book)
    (heavier anvil brick))
  (:goal (and (packed feather) (packed book) (packed brick) (packed anvil))))
