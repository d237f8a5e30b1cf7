(define (domain courier)
  (:requirements :strips :disjunctive-preconditions)
  (:predicates (at ?x) (road ?x ?y))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from)
                       (or (road ?from ?to) (road ?to ?from)))
    :effect (and (not (at ?from)) (at ?to))))
