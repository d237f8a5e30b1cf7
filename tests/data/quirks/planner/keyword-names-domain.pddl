; Types and predicates named like PDDL words (type, action, requirements, at, in), names with underscores,
; and a type declared after the type that extends it.
(define (domain keyword_names)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types action - type type requirements - object)
  (:predicates (at ?d - type ?t - requirements) (in ?a - action ?t - requirements)
               (link ?from ?to - requirements))
  (:action move
    :parameters (?d - type ?from ?to - requirements)
    :precondition (and (at ?d ?from) (link ?from ?to))
    :effect (and (at ?d ?to) (not (at ?d ?from))))
  (:action load
    :parameters (?a - action ?d - type ?t - requirements)
    :precondition (and (at ?a ?t) (at ?d ?t) (not (= ?a ?d)))
    :effect (and (in ?a ?t) (not (at ?a ?t)))))
