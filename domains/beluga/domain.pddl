;; Beluga logistics (after the Beluga challenge of Eisenhut et al. 2024), in the STRIPS form used by the
;; generalized-planning benchmarks: parts arrive in a fixed order on a Beluga flight, are stored on racks
;; and must be handed to the production line in the line's order.
;; A rack is a row of parts with two ends: Beluga trucks work at its Beluga end, factory trucks at its
;; factory end. (rack-succ ?a ?b) says ?b is next to ?a towards the factory end. Rack fill levels are
;; numbers: (fit-n-sum ?a ?b ?c) says ?a + ?b = ?c and ?c still fits a rack.
(define (domain beluga)
  (:requirements :strips :typing :equality :negative-preconditions)
  (:types beluga-truck fab-truck - truck
          part rack truck production-line num)
  (:constants
    nonep - part      ; "no part": ends the flight order and the line orders, and means "nothing needed"
    noner - rack      ; "no rack": (on-rack noner ?p) says ?p is on no rack
    n00 - num)        ; zero

  (:predicates
    (ready-to-unload ?p - part)                  ; ?p is the next part to leave the Beluga
    (next-to-unload ?pc - part ?pn - part)       ; after ?pc, ?pn leaves the Beluga
    (on-truck ?p - part ?t - truck)              ; ?p is on truck ?t
    (empty ?t - truck)                           ; truck ?t carries nothing
    (on-rack ?r - rack ?p - part)                ; ?p stands on rack ?r
    (rack-succ ?p1 - part ?p2 - part)            ; ?p2 follows ?p1 on a rack, towards the factory end
    (no-rack-succ ?p - part)                     ; nothing follows ?p towards the factory end
    (no-rack-pre ?p - part)                      ; nothing precedes ?p towards the Beluga end
    (p-line-next ?pl - production-line ?p - part) ; ?p is the next part that line ?pl will ask for
    (p-line-succ ?p1 - part ?p2 - part)          ; on its line, ?p2 is asked for after ?p1
    (needed-next ?p - part)                      ; the factory waits for ?p (nonep: for nothing)
    (processed ?p - part)                        ; ?p has been delivered to its line
    (unused ?r - rack)                           ; nothing was ever put on ?r
    (size ?p - part ?n - num)                    ; ?p takes ?n units of rack space
    (level ?r - rack ?n - num)                   ; ?n units of ?r are taken
    (fit-n-sum ?n1 - num ?n2 - num ?n3 - num))   ; ?n1 + ?n2 = ?n3, and ?n3 fits a rack

  ;; The next part leaves the Beluga onto an empty Beluga truck.
  (:action unload-from-beluga
    :parameters (?p - part ?np - part ?t - beluga-truck)
    :precondition (and (ready-to-unload ?p) (next-to-unload ?p ?np) (empty ?t))
    :effect (and (on-truck ?p ?t) (ready-to-unload ?np) (not (ready-to-unload ?p)) (not (empty ?t))))

  ;; A Beluga truck puts its part on an empty rack.
  (:action put-on-rack-first-beluga
    :parameters (?t - beluga-truck ?p - part ?r - rack ?pSize - num)
    :precondition (and (on-truck ?p ?t) (on-rack noner ?p) (no-rack-pre ?p) (no-rack-succ ?p)
                       (size ?p ?pSize) (level ?r n00) (fit-n-sum n00 ?pSize ?pSize))
    :effect (and (empty ?t) (on-rack ?r ?p) (level ?r ?pSize)
                 (not (on-truck ?p ?t)) (not (on-rack noner ?p)) (not (unused ?r)) (not (level ?r n00))))

  ;; A Beluga truck takes the only part of a rack.
  (:action put-on-truck-first-beluga
    :parameters (?t - beluga-truck ?p - part ?r - rack ?pSize - num)
    :precondition (and (empty ?t) (on-rack ?r ?p) (no-rack-pre ?p) (no-rack-succ ?p)
                       (size ?p ?pSize) (level ?r ?pSize) (fit-n-sum n00 ?pSize ?pSize))
    :effect (and (on-truck ?p ?t) (on-rack noner ?p) (level ?r n00)
                 (not (empty ?t)) (not (on-rack ?r ?p)) (not (level ?r ?pSize))))

  ;; A Beluga truck puts its part at the Beluga end of a rack, in front of the part ?pFirst there.
  ;; (The original also deletes (ready-to-unload ?p), which never holds here; that delete makes Fast
  ;; Downward see a conditional effect, so optimal search refused the domain. It is left out.)
  (:action put-on-rack-beluga
    :parameters (?t - beluga-truck ?p - part ?r - rack ?pFirst - part ?pSize - num ?rLevel - num
                 ?newLevel - num)
    :precondition (and (not (= ?p ?pFirst)) (on-truck ?p ?t) (on-rack ?r ?pFirst) (on-rack noner ?p)
                       (no-rack-pre ?pFirst) (no-rack-pre ?p) (no-rack-succ ?p) (size ?p ?pSize)
                       (level ?r ?rLevel) (fit-n-sum ?rLevel ?pSize ?newLevel))
    :effect (and (empty ?t) (on-rack ?r ?p) (rack-succ ?p ?pFirst) (level ?r ?newLevel)
                 (not (on-truck ?p ?t)) (not (on-rack noner ?p)) (not (no-rack-pre ?pFirst))
                 (not (no-rack-succ ?p)) (not (unused ?r))
                 (not (level ?r ?rLevel))))

  ;; A Beluga truck takes the part at the Beluga end of a rack that holds more than one part.
  (:action put-on-truck-beluga
    :parameters (?t - beluga-truck ?p - part ?r - rack ?pFirst - part ?pSize - num ?rLevel - num
                 ?newLevel - num)
    :precondition (and (not (= ?p ?pFirst)) (empty ?t) (on-rack ?r ?pFirst) (on-rack ?r ?p)
                       (no-rack-pre ?p) (rack-succ ?p ?pFirst) (size ?p ?pSize)
                       (level ?r ?newLevel) (fit-n-sum ?rLevel ?pSize ?newLevel))
    :effect (and (on-truck ?p ?t) (on-rack noner ?p) (no-rack-pre ?pFirst) (no-rack-succ ?p)
                 (level ?r ?rLevel)
                 (not (on-rack ?r ?p)) (not (empty ?t)) (not (rack-succ ?p ?pFirst))
                 (not (level ?r ?newLevel))))

  ;; When the factory waits for nothing, line ?pl asks for its next part ?pA.
  (:action set-next
    :parameters (?pl - production-line ?pA - part ?pn - part)
    :precondition (and (needed-next nonep) (p-line-next ?pl ?pA) (p-line-succ ?pA ?pn))
    :effect (and (needed-next ?pA) (p-line-next ?pl ?pn)
                 (not (needed-next nonep)) (not (p-line-next ?pl ?pA))))

  ;; A factory truck takes the only part of a rack (?rLevel and ?newLevel are not used).
  (:action put-on-truck-fab-last
    :parameters (?t - fab-truck ?r - rack ?p - part ?pSize - num ?rLevel - num ?newLevel - num)
    :precondition (and (empty ?t) (on-rack ?r ?p) (no-rack-pre ?p) (no-rack-succ ?p)
                       (size ?p ?pSize) (level ?r ?pSize))
    :effect (and (on-truck ?p ?t) (on-rack noner ?p) (level ?r n00)
                 (not (on-rack ?r ?p)) (not (empty ?t)) (not (level ?r ?pSize))))

  ;; A factory truck puts its part on an empty rack (?rLevel and ?newLevel are not used).
  (:action put-on-rack-fab-last
    :parameters (?t - fab-truck ?r - rack ?p - part ?pSize - num ?rLevel - num ?newLevel - num)
    :precondition (and (on-truck ?p ?t) (on-rack noner ?p) (no-rack-pre ?p) (no-rack-succ ?p)
                       (size ?p ?pSize) (level ?r n00))
    :effect (and (on-rack ?r ?p) (empty ?t) (level ?r ?pSize)
                 (not (on-rack noner ?p)) (not (on-truck ?p ?t)) (not (level ?r n00))))

  ;; A factory truck takes the part ?pRight at the factory end of a rack, behind ?pBefore.
  (:action put-on-truck-fab
    :parameters (?t - fab-truck ?r - rack ?pRight - part ?pBefore - part ?pSize - num ?rLevel - num
                 ?newLevel - num)
    :precondition (and (not (= ?pRight ?pBefore)) (empty ?t) (on-rack ?r ?pRight) (on-rack ?r ?pBefore)
                       (rack-succ ?pBefore ?pRight) (no-rack-succ ?pRight) (size ?pRight ?pSize)
                       (level ?r ?rLevel) (fit-n-sum ?newLevel ?pSize ?rLevel))
    :effect (and (on-truck ?pRight ?t) (on-rack noner ?pRight) (no-rack-pre ?pRight)
                 (no-rack-succ ?pBefore) (level ?r ?newLevel)
                 (not (empty ?t)) (not (on-rack ?r ?pRight)) (not (rack-succ ?pBefore ?pRight))
                 (not (level ?r ?rLevel))))

  ;; A factory truck puts its part at the factory end of a rack, behind the part ?pBefore there.
  (:action put-on-rack-fab
    :parameters (?t - fab-truck ?r - rack ?pRight - part ?pBefore - part ?pSize - num ?rLevel - num
                 ?newLevel - num)
    :precondition (and (not (= ?pRight ?pBefore)) (on-truck ?pRight ?t) (on-rack noner ?pRight)
                       (no-rack-pre ?pRight) (no-rack-succ ?pRight) (on-rack ?r ?pBefore)
                       (no-rack-succ ?pBefore) (size ?pRight ?pSize) (level ?r ?newLevel)
                       (fit-n-sum ?newLevel ?pSize ?rLevel))
    :effect (and (empty ?t) (on-rack ?r ?pRight) (rack-succ ?pBefore ?pRight) (level ?r ?rLevel)
                 (not (on-truck ?pRight ?t)) (not (on-rack noner ?pRight)) (not (no-rack-pre ?pRight))
                 (not (level ?r ?newLevel))))

  ;; A factory truck delivers the part the factory waits for.
  (:action to-fab
    :parameters (?t - fab-truck ?p - part)
    :precondition (and (needed-next ?p) (on-truck ?p ?t))
    :effect (and (empty ?t) (processed ?p) (needed-next nonep)
                 (not (on-truck ?p ?t)) (not (needed-next ?p)))))
