terraform import demo_thing.x thing-a
