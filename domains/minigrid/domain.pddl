;; MiniGrid as a planning domain: the IPC 1998 "grid" domain in the STRIPS form used for MiniGrid
;; environments (untyped; place, key and shape are unary predicates).
;; A robot walks between open cells; a locked cell (a door) is opened with a key of the lock's shape.
(define (domain minigrid)
  (:requirements :strips)
  (:predicates
    ;; what an object is
    (place ?x)                    ; ?x is a cell
    (key ?k)                      ; ?k is a key
    (shape ?s)                    ; ?s is a shape of keys and locks
    ;; fixed facts
    (conn ?x ?y)                  ; cells ?x and ?y are neighbours
    (key-shape ?k ?s)             ; key ?k has shape ?s
    (lock-shape ?x ?s)            ; the lock of cell ?x has shape ?s
    ;; facts that change
    (at ?k ?x)                    ; key ?k lies on cell ?x
    (at-robot ?x)                 ; the robot is on cell ?x
    (holding ?k)                  ; the robot carries key ?k
    (arm-empty)                   ; the robot carries no key
    (locked ?x)                   ; cell ?x is locked
    (open ?x))                    ; cell ?x can be entered

  ;; Step to a neighbouring open cell.
  (:action move
    :parameters (?curpos ?nextpos)
    :precondition (and (place ?curpos) (place ?nextpos) (conn ?curpos ?nextpos)
                       (at-robot ?curpos) (open ?nextpos))
    :effect (and (at-robot ?nextpos) (not (at-robot ?curpos))))

  ;; Pick up a key from the robot's cell with an empty hand.
  (:action pickup
    :parameters (?curpos ?key)
    :precondition (and (place ?curpos) (key ?key) (at ?key ?curpos) (at-robot ?curpos) (arm-empty))
    :effect (and (holding ?key) (not (at ?key ?curpos)) (not (arm-empty))))

  ;; Swap keys: leave the carried key on the robot's cell and take the one lying there.
  (:action pickup-and-loose
    :parameters (?curpos ?newkey ?oldkey)
    :precondition (and (place ?curpos) (key ?newkey) (key ?oldkey) (at ?newkey ?curpos)
                       (at-robot ?curpos) (holding ?oldkey))
    :effect (and (holding ?newkey) (at ?oldkey ?curpos)
                 (not (holding ?oldkey)) (not (at ?newkey ?curpos))))

  ;; Put the carried key down on the robot's cell.
  (:action putdown
    :parameters (?curpos ?key)
    :precondition (and (place ?curpos) (key ?key) (at-robot ?curpos) (holding ?key))
    :effect (and (arm-empty) (at ?key ?curpos) (not (holding ?key))))

  ;; Open the locked neighbouring cell with a carried key of the lock's shape.
  (:action unlock
    :parameters (?curpos ?lockpos ?key ?shape)
    :precondition (and (place ?curpos) (place ?lockpos) (key ?key) (shape ?shape)
                       (conn ?curpos ?lockpos) (key-shape ?key ?shape) (lock-shape ?lockpos ?shape)
                       (at-robot ?curpos) (locked ?lockpos) (holding ?key))
    :effect (and (open ?lockpos) (not (locked ?lockpos)))))
