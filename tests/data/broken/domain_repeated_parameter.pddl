(define (domain courier)
  (:requirements :strips)
  (:predicates (at ?x) (road ?x ?y))
  (:action drive
    :parameters (?from ?to
                 ?from)
    :precondition (and (at ?from) (road ?from ?to))
    :effect (and (not (at ?from)) (at ?to))))
