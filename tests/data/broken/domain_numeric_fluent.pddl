(define (domain courier)
  (:requirements :strips)
  (:predicates (at ?x) (road ?x ?y))
  (:functions (fuel))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))
