;; CoinCollector as genplan models it, for PDDLego+'s fixed-domain ablation (the preset pddlego-fixed-domain):
;; the model writes only the problem file for this domain. Written for genplan.
;; A room lies in a direction of another; between them there is either a passage (connected) or a closed door,
;; which open-door turns into a passage from the room the player is in.
(define (domain coincollector)
  (:requirements :strips :typing)
  (:types location direction)
  (:predicates
    (at ?loc - location)
    (visited ?loc - location)
    (connected ?from - location ?to - location ?dir - direction)
    (closed-door ?from - location ?to - location ?dir - direction))

  (:action open-door
    :parameters (?loc1 - location ?loc2 - location ?dir - direction)
    :precondition (and (at ?loc1) (closed-door ?loc1 ?loc2 ?dir))
    :effect (and (not (closed-door ?loc1 ?loc2 ?dir)) (connected ?loc1 ?loc2 ?dir)))

  (:action move
    :parameters (?from - location ?to - location ?dir - direction)
    :precondition (and (at ?from) (connected ?from ?to ?dir))
    :effect (and (not (at ?from)) (at ?to) (visited ?to))))
