(define (domain courier)
  (:requirements :strips)
  (:constants depot)
  (:predicates (at ?x) (road ?x ?y))
  (:action go-home
    :parameters (?from)
    :precondition (and (at ?from) (road ?from home))
    :effect (and (not (at ?from)) (at depot))))
