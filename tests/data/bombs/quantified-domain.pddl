; A grounding bomb inside a quantifier, written for genplan's tests: the precondition of 'report' asks whether
; some nine places hold a survey, which no state has, so deciding it tries all 40^9 choices. 'walk' alone
; reaches the goal in three steps.
(define (domain sprawl-quantified)
  (:requirements :strips :typing :existential-preconditions)
  (:types place)
  (:predicates (at ?p - place) (link ?a ?b - place) (surveyed ?p - place) (reported))
  (:action report
    :parameters ()
    :precondition (exists (?a ?b ?c ?d ?e ?f ?g ?h ?i - place)
                    (and (surveyed ?a) (surveyed ?b) (surveyed ?c) (surveyed ?d) (surveyed ?e)
                         (surveyed ?f) (surveyed ?g) (surveyed ?h) (surveyed ?i)))
    :effect (reported))
  (:action walk
    :parameters (?from ?to - place)
    :precondition (and (at ?from) (link ?from ?to))
    :effect (and (at ?to) (not (at ?from)))))
