(define (domain courier)
  (:requirements :strips)
  (:predicates (at ?x) (road ?x ?y) (connected ?x ?y))
  (:derived (connected ?x ?y) (road ?x ?y))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from) (connected ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))
