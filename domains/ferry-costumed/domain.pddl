(define (domain ferry-costumed)
  (:requirements :strips)
  (:predicates
    (different-trees ?x ?y)
    (nut ?n)
    (tree ?t)
    (squirrel-in ?t)
    (lies-in ?n ?t)
    (paws-empty)
    (in-paws ?n)
  )
  (:action leap
    :parameters (?from ?to)
    :precondition (and (tree ?from) (tree ?to) (different-trees ?from ?to) (squirrel-in ?from))
    :effect (and (squirrel-in ?to) (not (squirrel-in ?from))))
  (:action grab
    :parameters (?nut ?tree)
    :precondition (and (nut ?nut) (tree ?tree) (lies-in ?nut ?tree) (squirrel-in ?tree) (paws-empty))
    :effect (and (in-paws ?nut) (not (lies-in ?nut ?tree)) (not (paws-empty))))
  (:action drop-off
    :parameters (?nut ?tree)
    :precondition (and (nut ?nut) (tree ?tree) (in-paws ?nut) (squirrel-in ?tree))
    :effect (and (lies-in ?nut ?tree) (paws-empty) (not (in-paws ?nut))))
)
