; Alarm: existential preconditions and nested universal conditional effects, written for the held-out ADL
; suite. Opening a room trips every sensor in it, and each tripped sensor raises the alarm in every room it
; watches (forall inside forall); constants appear inside quantified conditions; the goal is a negated
; existential.
(define (domain alarm)
  (:requirements :adl :typing)
  (:types room sensor key)
  (:constants hall - room master - key)
  (:predicates (at ?r - room) (door ?a ?b - room) (open ?r - room) (fits ?k - key ?r - room)
               (holding ?k - key) (key-at ?k - key ?r - room) (in ?s - sensor ?r - room)
               (watches ?s - sensor ?r - room) (alarm ?r - room) (tripped ?s - sensor) (found ?r - room))
  (:action unlock
    :parameters (?from ?to - room)
    :precondition (and (at ?from) (door ?from ?to) (not (open ?to))
                       (exists (?k - key) (and (holding ?k) (or (fits ?k ?to) (= ?k master)))))
    :effect (and (open ?to)
                 (forall (?s - sensor)
                   (forall (?r - room)
                     (when (and (in ?s ?to) (watches ?s ?r)) (and (alarm ?r) (tripped ?s)))))))
  (:action walk
    :parameters (?from ?to - room)
    :precondition (and (at ?from) (or (door ?from ?to) (door ?to ?from)) (open ?to))
    :effect (and (not (at ?from)) (at ?to) (found ?to)))
  (:action pick
    :parameters (?k - key ?r - room)
    :precondition (and (at ?r) (key-at ?k ?r)
                       (forall (?j - key) (imply (holding ?j) (not (= ?j master)))))
    :effect (and (holding ?k) (not (key-at ?k ?r))))
  (:action reset
    :parameters (?r - room)
    :precondition (and (at ?r) (or (= ?r hall) (exists (?s - sensor) (and (in ?s ?r) (tripped ?s)))))
    :effect (and (forall (?s - sensor)
                   (when (in ?s ?r)
                     (not (tripped ?s))))
                 (forall (?x - room) (when (exists (?s - sensor) (and (watches ?s ?x) (in ?s ?r))) (not (alarm ?x)))))))
