(define (domain courier)
  (:predicates (at ?x))
  ; café in Latin-1
)
