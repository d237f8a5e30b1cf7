(define (domain courier)
  (:requirements :strips)
  (:predicates
    (at ?x)
    (road ?x ?y)
    (at ?x ?y))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))
