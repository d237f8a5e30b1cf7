(define (domain courier)
  (:requirements :strips :conditional-effects)
  (:predicates (at ?x) (road ?x ?y) (lit ?x))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to)
                 (when (lit ?from) (lit ?to)))))
