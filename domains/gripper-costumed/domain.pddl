(define (domain gripper-costumed)
  (:requirements :strips)
  (:predicates
    (hideout ?h)
    (chest ?c)
    (berth ?s)
    (boat-at ?h)
    (hidden-at ?c ?h)
    (berth-free ?s)
    (stowed ?o ?s)
  )
  (:action sail
    :parameters (?from ?to)
    :precondition (and (hideout ?from) (hideout ?to) (boat-at ?from))
    :effect (and (boat-at ?to) (not (boat-at ?from))))
  (:action load
    :parameters (?chest ?hideout ?berth)
    :precondition (and (chest ?chest) (hideout ?hideout) (berth ?berth) (hidden-at ?chest ?hideout) (boat-at ?hideout) (berth-free ?berth))
    :effect (and (stowed ?chest ?berth) (not (hidden-at ?chest ?hideout)) (not (berth-free ?berth))))
  (:action unload
    :parameters (?chest ?hideout ?berth)
    :precondition (and (chest ?chest) (hideout ?hideout) (berth ?berth) (stowed ?chest ?berth) (boat-at ?hideout))
    :effect (and (hidden-at ?chest ?hideout) (berth-free ?berth) (not (stowed ?chest ?berth))))
)
