; A typed domain whose predicates and actions take parameters of the root type `object` between typed ones,
; some written `- object`, one left bare before a typed name (PDDL gives it that type: `?s ?p - place`).
(define (domain shelves)
  (:requirements :strips :typing)
  (:types thing place - object box - thing)
  (:predicates (on ?b - box ?x - object ?p - place) (free ?x - object) (here ?p - place) (near ?q ?p - place))
  (:action shift
    :parameters (?b - box ?from - object ?to - object ?p - place)
    :precondition (and (on ?b ?from ?p) (free ?to) (here ?p))
    :effect (and (on ?b ?to ?p) (free ?from) (not (free ?to)) (not (on ?b ?from ?p))))
  (:action walk
    :parameters (?s ?p - place)
    :precondition (and (here ?s) (near ?s ?p))
    :effect (and (here ?p) (not (here ?s)))))
