; A grounding bomb written for genplan's tests: 'survey' has nine parameters that no precondition ties to
; the state but the first, so it has 40^8 bindings in every state (2.6e14 in all over 40 places), as a model
; writes by accident. 'walk' alone reaches the goal in three steps.
(define (domain sprawl)
  (:requirements :strips :typing)
  (:types place)
  (:predicates (at ?p - place) (link ?a ?b - place) (surveyed ?p - place))
  (:action survey
    :parameters (?a ?b ?c ?d ?e ?f ?g ?h ?i - place)
    :precondition (at ?a)
    :effect (surveyed ?b))
  (:action walk
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (link ?from ?to))
    :effect (and (at ?to) (not (at ?from)))))
