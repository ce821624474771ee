terraform import demo_old_thing.x old-a
