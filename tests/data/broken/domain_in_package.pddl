(in-package "PDDL")

; A leading Common Lisp form (the IPC-1998 files): the error is at line 1, not at the define after it.
(define (domain courier)
  (:requirements :strips :typing)
  (:types place vehicle parcel - object
          truck - vehicle)
  (:predicates
    (at ?v - vehicle ?p - place)
    (parcel-at ?x - parcel ?p - place)
    (in ?x - parcel ?v - vehicle)
    (road ?from - place ?to - place))
  (:action drive
    :parameters (?v - vehicle ?from - place ?to - place)
    :precondition (and (at ?v ?from) (road ?from ?to))
    :effect (and (not (at ?v ?from)) (at ?v ?to)))
  (:action load
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (at ?v ?p) (parcel-at ?x ?p))
    :effect (and (not (parcel-at ?x ?p)) (in ?x ?v)))
  (:action unload
    :parameters (?x - parcel ?v - vehicle ?p - place)
    :precondition (and (at ?v ?p) (in ?x ?v))
    :effect (and (not (in ?x ?v)) (parcel-at ?x ?p))))
