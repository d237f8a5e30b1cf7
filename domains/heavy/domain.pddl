;; Heavy packing (the classic "heavy-pack" domain, same actions and predicates): put every item into one
;; box, building a single stack in which each item lies on a strictly heavier one. Objects are untyped;
;; (heavier ?a ?b) is a static strict total order.
(define (domain heavy)
  (:requirements :strips)

  (:predicates
    (heavier ?item1 ?item2)     ; ?item1 is heavier than ?item2
    (packed ?item)              ; ?item is in the box
    (unpacked ?item)            ; ?item is not in the box yet
    (nothing-above ?item)       ; ?item is the top of the stack in the box
    (box-empty))                ; nothing has been packed yet

  ;; The first item goes onto the bottom of the empty box.
  (:action pack-first
    :parameters (?item)
    :precondition (box-empty)
    :effect (and (packed ?item)
                 (nothing-above ?item)
                 (not (box-empty))
                 (not (unpacked ?item))))

  ;; Any later item goes on top of the stack, onto a heavier item.
  (:action stack
    :parameters (?bottom ?top)
    :precondition (and (packed ?bottom) (nothing-above ?bottom)
                       (heavier ?bottom ?top) (unpacked ?top))
    :effect (and (packed ?top)
                 (nothing-above ?top)
                 (not (nothing-above ?bottom))
                 (not (unpacked ?top)))))
