(define (domain courier)
  (:requirements :strips :universal-preconditions)
  (:predicates (at ?x) (road ?x ?y) (open ?x))
  (:action drive
    :parameters (?from ?to)
    :precondition (and (at ?from)
                       (forall (?z) (open ?z)))
    :effect (and (not (at ?from)) (at ?to))))
