; Rooms: disjunctive and implied preconditions, existential and universal conditions, either types.
(define (domain rooms)
  (:requirements :strips :typing :disjunctive-preconditions :existential-preconditions
                 :universal-preconditions :negative-preconditions)
  (:types agent room key - object robot human - agent)
  (:predicates (in ?a - agent ?r - room) (door ?a ?b - room) (locked ?r - room)
               (key-for ?k - key ?r - room) (holding ?a - agent ?k - key) (key-in ?k - key ?r - room)
               (visited ?r - room) (alarm))
  (:action go
    :parameters (?a - (either robot human) ?from ?to - room)
    :precondition (and (in ?a ?from)
                       (or (door ?from ?to) (door ?to ?from))
                       (imply (locked ?to) (exists (?k - key) (and (key-for ?k ?to) (holding ?a ?k)))))
    :effect (and (not (in ?a ?from)) (in ?a ?to) (visited ?to)))
  (:action take
    :parameters (?a - agent ?k - key ?r - room)
    :precondition (and (in ?a ?r) (key-in ?k ?r) (not (alarm)))
    :effect (and (holding ?a ?k) (not (key-in ?k ?r))))
  (:action raise-alarm
    :parameters (?h - human)
    :precondition (forall (?r - room) (imply (locked ?r) (not (exists (?a - agent) (in ?a ?r)))))
    :effect (alarm)))
