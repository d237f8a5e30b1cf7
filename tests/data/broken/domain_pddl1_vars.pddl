; PDDL 1.0's ':vars' in an action (the IPC-1998 domains): the error is at its line, 9.
(define (domain courier)
  (:requirements :strips :typing)
  (:types place vehicle parcel - object
          truck - vehicle)
  (:predicates (at ?v - vehicle ?p - place) (road ?from - place ?to - place))
  (:action drive
    :parameters (?v - vehicle ?to - place)
    :vars (?from - place)
    :precondition (and (at ?v ?from) (road ?from ?to))
    :effect (and (not (at ?v ?from)) (at ?v ?to))))
