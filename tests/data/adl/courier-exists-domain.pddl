(define (domain courier)
  (:requirements :strips :existential-preconditions)
  (:predicates (at ?x) (road ?x ?y))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from)
                       (exists (?z) (road ?z ?to)))
    :effect (and (not (at ?from)) (at ?to))))
